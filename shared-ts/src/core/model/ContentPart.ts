export enum ContentPartType {
  text = 'text',
  reasoning = 'reasoning'
}

/**
 * One piece of a message's content. Reasoning is kept apart so providers can omit it on the way back.
 * Immutable (read-only accessors): parts are shared between history, snapshots and hook contexts.
 */
export class ContentPart {
  private readonly partType: ContentPartType
  private readonly partText: string

  private constructor(type: ContentPartType, text: string) {
    this.partType = type
    this.partText = text
  }

  get type(): ContentPartType {
    return this.partType
  }

  get text(): string {
    return this.partText
  }

  static text(text: string): ContentPart {
    return new ContentPart(ContentPartType.text, text)
  }

  static reasoning(text: string): ContentPart {
    return new ContentPart(ContentPartType.reasoning, text)
  }

  isText(): boolean {
    return this.type === ContentPartType.text
  }
}
