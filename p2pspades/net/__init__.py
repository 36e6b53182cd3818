"""p2pspades.net"""
