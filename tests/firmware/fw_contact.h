/* fw_contact.h — the contact-step scenario that the M4F runs in float
 * (contact_harness.c.in) and fw_contact_host.c runs in double with the generic runtime:
 * the sample quadruped (robots/quadruped12.urdf, --floating-base, a frictional contact at
 * each foot) dropped from FWC_DROP above the ground under PD control of its joints towards
 * the neutral pose, for FWC_STEPS steps of FWC_DT. */
#ifndef FW_CONTACT_H
#define FW_CONTACT_H

#define FWC_DT 1e-3
#define FWC_STEPS 300
#define FWC_DROP 0.05 /* the feet's height above the ground at the start, m */
#define FWC_MU 0.8
#define FWC_KP 50.0  /* N m / rad */
#define FWC_KD 0.2   /* N m s / rad: explicit damping, kd dt / I < 2 for the shank's 5e-4 kg m^2 */
/* The float solve: ADMM with a fixed iteration count (abs_tol = rel_tol = 0: exactly
 * FWC_ITER iterations, the same work every step; fw_contact_host.c says why). */
#define FWC_ITER 20

#endif
