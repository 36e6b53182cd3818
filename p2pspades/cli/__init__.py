"""p2pspades.cli"""
