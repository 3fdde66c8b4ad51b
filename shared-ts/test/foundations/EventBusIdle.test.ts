import { describe, expect, it } from 'vitest'
import { BusEvent } from '../../src/core/events/BusEvent'
import { EventBus } from '../../src/core/events/EventBus'

/** An event that counts how often its type is asked for. */
class CountingEvent extends BusEvent {
  reads: number = 0

  eventType(): string {
    this.reads++
    return 'custom.counted'
  }
}

describe('EventBus: publishing with nobody listening', () => {
  it('does not even read the event\'s type', () => {
    const bus = new EventBus()
    const e = new CountingEvent()
    bus.publish(e)
    expect(e.reads).toBe(0)
    const off = bus.subscribe('custom.counted', () => {})
    bus.publish(e)
    expect(e.reads).toBe(1)
    off()
    bus.publish(e)
    expect(e.reads).toBe(1)
  })
})
