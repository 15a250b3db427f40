/* cdyn_config.h — the scalar type shared by the runtime and generated code.
 * Define CDYN_FLOAT (e.g. -DCDYN_FLOAT) to build everything in single precision. */
#ifndef CDYN_CONFIG_H
#define CDYN_CONFIG_H

#include <math.h>

#ifdef CDYN_FLOAT
typedef float cdyn_real;
#define CDYN_R(x) ((float)(x))
#define CDYN_SQRT(x) sqrtf(x)
#define CDYN_SIN(x) sinf(x)
#define CDYN_COS(x) cosf(x)
#else
typedef double cdyn_real;
#define CDYN_R(x) (x)
#define CDYN_SQRT(x) sqrt(x)
#define CDYN_SIN(x) sin(x)
#define CDYN_COS(x) cos(x)
#endif

/* Which axes a frame Jacobian is expressed in. */
typedef enum {
    CDYN_LOCAL = 0,              /* frame axes, frame origin */
    CDYN_LOCAL_WORLD_ALIGNED = 1 /* world axes, frame origin */
} cdyn_reference;

#endif
