"""`python -m p2pspades`: the command line, quiet about a Ctrl-C that comes while it is still starting."""

try:
    from p2pspades.cli.main import interrupted, main
except KeyboardInterrupt:
    raise SystemExit(130) from None

try:
    code = main()
except KeyboardInterrupt:  # between the lines of main's own handler
    code = interrupted()
raise SystemExit(code)
