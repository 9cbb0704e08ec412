// What the back office's routes are given: the member site's context, the guard and settings.
import type { AppContext } from '../context';
import type { AdminGuard } from './guard';
import type { AdminSettings } from './settings';

export interface AdminContext extends AppContext {
  admin: AdminGuard & { settings: AdminSettings };
}
