"""p2pspades.crypto"""
