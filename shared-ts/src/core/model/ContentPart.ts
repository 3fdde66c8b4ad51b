export enum ContentPartType {
  text = 'text',
  reasoning = 'reasoning'
}

/** One piece of a message's content. Reasoning is kept apart so providers can omit it on the way back. */
export class ContentPart {
  readonly type: ContentPartType
  readonly text: string

  private constructor(type: ContentPartType, text: string) {
    this.type = type
    this.text = text
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
