// Component tests wait on the DOM through testing-library, whose 1 s default for findBy/waitFor is
// shorter than a render plus a fetch take on a loaded 2-CPU CI machine (a calendar test took 1.4 s).
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 5000 });
