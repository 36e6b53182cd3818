"""p2pspades: serverless, cheat-proof Spades for one LAN."""

__version__ = "0.1.0"
