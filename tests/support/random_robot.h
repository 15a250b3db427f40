/* random_robot.h — seeded random URDF robots for stress tests.
 *
 * Every function is a pure function of the seed: no global state, the same seed always
 * gives the same robot, byte for byte. The robots roam what a URDF can say: 1 to 40
 * moving joints (revolute, continuous, prismatic, rarely planar or a floating joint in
 * the middle of the tree), chains, stars and bushy trees, fixed chains and fixed leaves,
 * links without <inertial>, aligned, nearly aligned and skewed (unnormalised) axes,
 * exact right-angle and random rotations, and odd names (spaces, dashes, dots, UTF-8,
 * XML entities, C keywords, leading digits, names that collide once sanitised).
 *
 * Every robot has a positive definite joint-space inertia matrix at every configuration:
 * each moving body either carries mass with a full-rank inertia or, when massless, is
 * pinned by a massive child whose joint motion is not collinear with its own (their
 * relative geometry is constant, so no configuration lines them up).
 *
 * Big seeds: RANDOM_ROBOT_BIG_FIRST .. RANDOM_ROBOT_BIG_FIRST + RANDOM_ROBOT_BIG_COUNT - 1
 * are a distinct shape, a deep forest: 3 to 6 chains of 8 to 15 moving joints hanging
 * straight from the root link (several root DoFs), long enough that the LTDL
 * factorisation has more than 1000 products, so the generator emits its in-place form
 * (generator/emit/emit_crba.c, emit_ltl_in_place). Seed 1000 has a fixed base and 1-DoF
 * joints; 1001 a fixed base with planar joints and a floating joint in the middle of
 * chains (and a planar one below that); 1002 a free-flyer root and a planar joint
 * mid-chain. Everything else (axes, origins, masses, names, fixed links, print order)
 * follows the ordinary rules; big seeds are never extreme. Other seeds are ordinary. */
#ifndef CDYN_TESTS_RANDOM_ROBOT_H
#define CDYN_TESTS_RANDOM_ROBOT_H

#define RANDOM_ROBOT_BIG_FIRST 1000u
#define RANDOM_ROBOT_BIG_COUNT 3u

/* The robot for `seed` as URDF text (malloc'd, NUL-terminated; free() it), or NULL if out
 * of memory. *floating_base (may be NULL) is set to 1 when the robot is meant to get a
 * free-flyer root (about a third of the ordinary seeds, big seed 1002), else 0. */
char *random_robot_urdf(unsigned seed, int *floating_base);

/* Sizes from the generator's own bookkeeping (not from any parser), the free-flyer root
 * included when the seed asks for one. -1 if out of memory. */
int random_robot_expected_nv(unsigned seed);
int random_robot_expected_nq(unsigned seed);

/* Number of moving (non-fixed) URDF joints; -1 if out of memory. */
int random_robot_moving_joints(unsigned seed);

/* 1 for the few seeds (about 1 in 20) whose masses span six decades (1e-4 to 100 kg)
 * instead of at most four within 1e-3..50 kg. Over seeds 0..99 at random configurations,
 * cond(M) stays below 1e7 for ordinary seeds and reaches 2e8 for these: tests may widen
 * their tolerances for these seeds only. 0 otherwise, -1 if out of memory. */
int random_robot_is_extreme(unsigned seed);

#endif
