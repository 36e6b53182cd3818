"""p2pspades.rules"""
