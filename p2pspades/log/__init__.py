"""p2pspades.log"""
