#include "CDockKitInProcess.h"

// Runs as the program loads: a program written against DockKit alone, linked with OpenDock's
// in-process docks, gets the simulated gimbal with OPENDOCK_GIMBAL=sim without a line of its own.
__attribute__((constructor)) static void cdockkitinprocess_load(void) {
    cdockkitinprocess_register_docks();
}
