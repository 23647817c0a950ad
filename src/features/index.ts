import type { Feature } from './context';
import { feature as threads } from './threads';
import { feature as comments } from './comments';
import { feature as navigation } from './navigation';
import { feature as apply } from './apply';
import { feature as threadPage } from './threadPage';
import { feature as reply } from './reply';
import { feature as lore } from './lore';

/** Every feature, in registration order. A new feature adds its folder and one line here. */
export const features: readonly Feature[] = [threads, comments, navigation, apply, threadPage, reply, lore];
