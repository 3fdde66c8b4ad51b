import preferences from '@ohos.data.preferences';

export { preferences };
