// application/BaseContext (API 12).
export default abstract class BaseContext {
  stageMode: boolean;
}
