/*
 * A tiny seeded PRNG and the distributions the simulator draws from. Math.random cannot be seeded, and
 * the simulator must replay identically for a seed so that tests and demos are reproducible.
 */

import { hashString, mulberry32 } from "@northstar/shared/random";

export { hashString, mulberry32 };

export class Random {
  private readonly next: () => number;

  constructor(seed: string) {
    this.next = mulberry32(hashString(seed));
  }

  /** Uniform in (0, 1): never exactly 0, so logarithms stay finite. */
  uniform(): number {
    return (this.next() * 4294967295 + 0.5) / 4294967296;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    return Math.sqrt(-2 * Math.log(this.uniform())) * Math.cos(2 * Math.PI * this.uniform());
  }

  /**
   * Student-t with 4 degrees of freedom scaled to unit variance: fat tails like real returns. A
   * chi-square with 4 degrees of freedom is −2·ln(U1·U2).
   */
  fatTailed(): number {
    const chi2 = -2 * Math.log(this.uniform() * this.uniform());
    return (this.normal() / Math.sqrt(chi2 / 4)) * Math.SQRT1_2;
  }

  /** Log-normal with median `median` and log-sd `sigma`. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}
