#ifndef C_DOCKKIT_IN_PROCESS_H
#define C_DOCKKIT_IN_PROCESS_H

// Defined in Swift (DockKitInProcess): hands DockKit the engine's docks for this process.
void cdockkitinprocess_register_docks(void);

#endif
