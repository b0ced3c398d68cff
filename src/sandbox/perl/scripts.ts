// The sandbox's root-run Perl, kept in files of its own (prep.pl, view.pl, apply.pl: each says what
// it does and takes named arguments) and bundled into the JavaScript as text (esbuild's `text`
// loader, asked for by the import attribute; the test runner's configs load `.pl` the same way),
// so the program run is always the one shipped with the code, with no file to find at run time.
import APPLY from './apply.pl' with { type: 'text' };
import PREP from './prep.pl' with { type: 'text' };
import VIEW from './view.pl' with { type: 'text' };

/** The overlay's mounts alone (prep.pl), with the program's arguments: the set-up's trial of them. */
export const PREP_STEP: string = `${PREP}\npackage main;\nPatchloopPrep::run(@ARGV);\nexit 0;\n`;
/**
 * In each command's namespace, as root: its view of the machine (view.pl), the overlay's mounts
 * (prep.pl) among its steps, then the command's next step exec'd. One process for all of it.
 */
export const VIEW_STEP: string = `${PREP}\n${VIEW}`;
/** After each command, as root: what it wrote, moved into the checkout (apply.pl). */
export const APPLY_STEP: string = APPLY;
