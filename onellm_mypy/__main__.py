from onellm_runtime.cli import entry

entry()
