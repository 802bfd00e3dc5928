"""The `wordtable` subcommands. Each module has `add_arguments(parser)` and `run(args) -> int`;
the CLI imports only the one that is asked for, so start-up stays cheap."""
