/* cdyn_status.c — messages for the runtime's status codes. */
#include "cdyn_model.h"

const char *cdyn_strerror(cdyn_status s)
{
    switch (s) {
    case CDYN_OK: return "ok";
    case CDYN_E_ARG:
        return "invalid argument (null pointer, bad index or mismatched model and data)";
    case CDYN_E_SIZE: return "workspace too small";
    case CDYN_E_SINGULAR: return "non-positive pivot: the inertia matrix is not positive definite";
    case CDYN_E_NONFINITE: return "a NaN or infinity in the inputs reached the result";
    case CDYN_E_NOT_CONVERGED:
        return "the solver stopped at max_iter without meeting its tolerances";
    }
    return "unknown status";
}
