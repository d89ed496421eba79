/* The one list of applets, sorted by command name.  APPLET(c_name, "command").
 * main.c builds the dispatch table, --list and --install from it; the Makefile
 * reads it for the APPLETS= filter.  An applet left out of the build has no
 * NAME_main symbol (a weak reference that stays NULL) and is not listed. */
APPLET(capture, "capture")
APPLET(lowmem, "lowmem")
APPLET(mem_ledger, "mem-ledger")
APPLET(smaps_rollup, "smaps-rollup")
APPLET(tmpfs_du, "tmpfs-du")
APPLET(vmstat_meter, "vmstat-meter")
APPLET(zoneinfo_wm, "zoneinfo-wm")
