"""p2pspades.bots"""
