/** What the user did with a server's question (MCP `elicitation/create`). */
export enum McpElicitationAction {
  accept = 'accept',
  decline = 'decline',
  cancel = 'cancel'
}

/**
 * A question an MCP server put to the user (`elicitation/create`, form mode), as the client checked it:
 * a message and the schema the answer must match (a JSON-Schema object the core's validator compiled).
 */
export class McpElicitationRequest {
  /** The server's name, as the app configured it (the tool prefix). */
  readonly server: string
  readonly message: string
  /** The requested schema as the server sent it (JSON text; it compiled with JsonSchema). */
  readonly requestedSchemaJson: string
  /** The tool call during which the server asked ('' when the client cannot tell). */
  readonly toolCallId: string

  constructor(server: string, message: string, requestedSchemaJson: string, toolCallId: string) {
    this.server = server
    this.message = message
    this.requestedSchemaJson = requestedSchemaJson
    this.toolCallId = toolCallId
  }
}

/** The user's answer: accept with content matching the requested schema, decline, or cancel. */
export class McpElicitationAnswer {
  readonly action: McpElicitationAction
  /** For accept: the content (it matched the requested schema). */
  readonly content?: Record<string, Object>

  private constructor(action: McpElicitationAction, content?: Record<string, Object>) {
    this.action = action
    this.content = content
  }

  static accept(content: Record<string, Object>): McpElicitationAnswer {
    return new McpElicitationAnswer(McpElicitationAction.accept, content)
  }

  static decline(): McpElicitationAnswer {
    return new McpElicitationAnswer(McpElicitationAction.decline)
  }

  static cancel(): McpElicitationAnswer {
    return new McpElicitationAnswer(McpElicitationAction.cancel)
  }
}
