import preferences from '@ohos.data.preferences';
import relationalStore from '@ohos.data.relationalStore';

export { preferences, relationalStore };
