"""p2pspades.ui"""
