/* cdyn_scalar.h — which scalar a build of runtime/ itself uses: double, or float when the
 * build defines CDYN_FLOAT. A folder written by cdyngen carries its own cdyn_scalar.h in place
 * of this one, which fixes the scalar it was generated for (--scalar), whatever the build
 * passes. */
#ifndef CDYN_SCALAR_H
#define CDYN_SCALAR_H
#endif
