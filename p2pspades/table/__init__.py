"""p2pspades.table"""
