/**
 * What in-place subschemas evaluated of the current instance — property names and item
 * indexes — collected from the subschemas that passed, for `unevaluatedProperties` and
 * `unevaluatedItems` (annotations of failed subschemas are dropped).
 */
export class Evaluated {
  allProperties: boolean = false
  properties: Set<string> = new Set<string>()
  allItems: boolean = false
  /** Items [0, itemsBefore) were evaluated (prefixItems). */
  itemsBefore: number = 0
  /** Items `contains` matched. */
  items: Set<number> = new Set<number>()

  hasProperty(name: string): boolean {
    return this.allProperties || this.properties.has(name)
  }

  hasItem(index: number): boolean {
    return this.allItems || index < this.itemsBefore || this.items.has(index)
  }

  merge(other: Evaluated): void {
    this.allProperties = this.allProperties || other.allProperties
    if (!this.allProperties) {
      other.properties.forEach((name: string): void => {
        this.properties.add(name)
      })
    }
    this.allItems = this.allItems || other.allItems
    this.itemsBefore = Math.max(this.itemsBefore, other.itemsBefore)
    if (!this.allItems) {
      other.items.forEach((index: number): void => {
        this.items.add(index)
      })
    }
  }
}
