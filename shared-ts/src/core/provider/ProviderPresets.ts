/** Endpoint and model ids of a known OpenAI-compatible vendor. */
export class ProviderPreset {
  readonly id: string
  readonly displayName: string
  readonly baseUrl: string
  readonly defaultModel: string
  readonly models: string[]

  constructor(id: string, displayName: string, baseUrl: string, defaultModel: string, models: string[]) {
    this.id = id
    this.displayName = displayName
    this.baseUrl = baseUrl
    this.defaultModel = defaultModel
    this.models = models
  }
}

export class ProviderPresets {
  /** DeepSeek: `deepseek-reasoner` streams `reasoning_content` before the answer. */
  static readonly deepseek: ProviderPreset = new ProviderPreset('deepseek', 'DeepSeek',
    'https://api.deepseek.com', 'deepseek-chat', ['deepseek-chat', 'deepseek-reasoner'])
  /** Zhipu GLM (BigModel open platform): GLM-4.5 thinking streams `reasoning_content`. */
  static readonly zhipu: ProviderPreset = new ProviderPreset('zhipu', 'Zhipu GLM',
    'https://open.bigmodel.cn/api/paas/v4', 'glm-4.5',
    ['glm-4.5', 'glm-4.5-air', 'glm-4.5-flash', 'glm-4-plus', 'glm-4-air', 'glm-4-flash'])

  static all(): ProviderPreset[] {
    return [ProviderPresets.deepseek, ProviderPresets.zhipu]
  }

  static byId(id: string): ProviderPreset | undefined {
    const all = ProviderPresets.all()
    for (let i = 0; i < all.length; i++) {
      if (all[i].id === id) {
        return all[i]
      }
    }
    return undefined
  }
}
