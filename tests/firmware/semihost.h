/* semihost.h — output, exit and an instruction clock for a program under QEMU.
 * Output and exit go through Arm semihosting (QEMU -semihosting); the clock is SysTick on
 * the core clock, whose count QEMU's -icount mode ties to the instructions executed. */
#ifndef FW_SEMIHOST_H
#define FW_SEMIHOST_H

#include <stdint.h>

void semihost_write(const char *s); /* a NUL-terminated string to the host's stdout */
void semihost_exit(int failed);     /* ends the emulation: exit status 0, or 1 */
void clock_start(void);             /* SysTick free-running from 2^24 - 1 */
uint32_t clock_now(void);           /* ticks elapsed since clock_start (mod 2^24) */

#endif
