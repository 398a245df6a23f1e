"""wlseal: the Python code of the wlseal scripts.

  wlseal.vm       QEMU's command line, QMP, screenshots (scripts/run-vm)
  wlseal.session  run-vm's --shell and --run sessions

scripts/ is the import root: a Python program in scripts/ (run-vm) imports
the package directly, since Python puts a program's own directory first on
sys.path. Nothing changes sys.path.
"""
