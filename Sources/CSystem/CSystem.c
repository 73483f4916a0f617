// The C target's one source file: what include/CSystem.h declares that Glibc's headers do not give Swift.
#include <sys/prctl.h>
#include "CSystem.h"

void csystem_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }
