from p2pspades.cli.main import main

raise SystemExit(main())
