/**
 * Bounds shared by both sides of the kernel protocol: the host (kernelProcess.ts) and the JavaScript
 * kernel import them; the Python driver (python/kernel.py) repeats them and a unit test holds them equal.
 */

/**
 * Bytes of one message line on fd 4. What legitimately travels is far smaller: stream text goes in
 * chunks of 64 K characters, reprs and DataFrames are cut to 10 K (JavaScript: 100 K) characters,
 * and matplotlib PNGs measured 20–200 KB (a 12×8 in figure at 300 dpi: 197 KB; a 2000² noise
 * `imshow` at 200 dpi: 7 MB). 8 MB carries any image the cell's image budget could still show
 * (5 MB, kernelResult.ts) as base64, and a tool() input of several MB; a longer line is dropped.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
