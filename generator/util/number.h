/* number.h — doubles written as text that reads back exactly, in as few digits as that takes. */
#ifndef CDYNGEN_NUMBER_H
#define CDYNGEN_NUMBER_H

#include <stddef.h>

/* x as %.Ng with the smallest N (1 to 17) whose text strtod reads back to x's exact bit
 * pattern: 9.81 is "9.81", not %.17g's "9.8100000000000005"; 0.1 + 0.2 keeps its 17 digits.
 * A C compiler reads the text to the same double, so generated code computes the same.
 * len of 32 or more holds any double. */
void number_shortest(char *buf, size_t len, double x);

#endif
