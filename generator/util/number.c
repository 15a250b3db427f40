/* number.c — the shortest round-trip text of a double (number.h). */
#include "util/number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void number_shortest(char *buf, size_t len, double x)
{
    int digits;
    for (digits = 1; digits < 17; digits++) {
        double back;
        snprintf(buf, len, "%.*g", digits, x);
        back = strtod(buf, NULL);
        if (memcmp(&back, &x, sizeof x) == 0) /* bits, so -0 and NaN payloads count too */
            return;
    }
    snprintf(buf, len, "%.17g", x); /* 17 significant digits always round-trip */
}
