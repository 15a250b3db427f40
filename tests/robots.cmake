# Sample robots (robots/*.urdf) and the seeded random-robot generator (support/random_robot.h):
# the samples parse and build with their published sizes, frames and masses; seeds 0..99
# parse, build with the sizes the generator booked, are reproducible and roam widely.
cdyn_add_check_test(test_random_robots test_random_robots.c)
