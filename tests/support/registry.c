/* registry.c — see registry.h. */
#include "registry.h"

int registry_count(const generated_api *const *robots)
{
    int n = 0;
    while (robots[n])
        n++;
    return n;
}
