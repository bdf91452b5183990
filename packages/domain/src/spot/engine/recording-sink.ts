import type { CancelReason, DoneReason, EngineSink, RejectReason, Side } from "./types.ts";

/** One engine event as a plain tuple, for tests and debugging. */
export type EngineEvent =
  | ["accepted", number, number, Side, number, number, number]
  | ["trade", number, number, number, number, number, number, Side]
  | ["done", number, DoneReason]
  | ["cancelled", number, number, CancelReason]
  | ["rejected", number, RejectReason];

/** A sink that records every event in order (allocates per event: tests only). */
export class RecordingSink implements EngineSink {
  events: EngineEvent[] = [];

  onAccepted(id: number, owner: number, side: Side, price: number, qty: number, quote: number): void {
    this.events.push(["accepted", id, owner, side, price, qty, quote]);
  }

  onTrade(
    makerId: number,
    takerId: number,
    price: number,
    qty: number,
    makerOwner: number,
    takerOwner: number,
    takerSide: Side,
  ): void {
    this.events.push(["trade", makerId, takerId, price, qty, makerOwner, takerOwner, takerSide]);
  }

  onDone(id: number, reason: DoneReason): void {
    this.events.push(["done", id, reason]);
  }

  onCancelled(id: number, remaining: number, reason: CancelReason): void {
    this.events.push(["cancelled", id, remaining, reason]);
  }

  onRejected(id: number, reason: RejectReason): void {
    this.events.push(["rejected", id, reason]);
  }

  /** Returns the events recorded since the last call and forgets them. */
  take(): EngineEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }
}
