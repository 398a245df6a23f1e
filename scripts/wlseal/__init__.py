"""wlseal: the Python code of the wlseal scripts.

  wlseal.vm       QEMU's command line, QMP, screenshots (scripts/run-vm)
  wlseal.session  run-vm's --shell and --run sessions
  wlseal.testlog  meson's test log as scripts/test reads it
  wlseal.compositor  the headless compositor for the host's Python tests

scripts/ is the import root, and nothing else is set up anywhere: a
Python program in scripts/ (run-vm) imports the package directly, since
Python puts a program's own directory first on sys.path; a shell script
runs a module with wlseal_python (scripts/lib.sh), which puts scripts/ on
PYTHONPATH for that one command.
"""
