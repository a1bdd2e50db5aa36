from onellm_runtime.cli.main import entry

entry()
