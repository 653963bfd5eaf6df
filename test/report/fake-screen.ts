import { displayWidth } from '../../src/report/columns.js';

/**
 * A terminal of fixed size that keeps what it shows and what scrolled off its top, for the escape sequences
 * the live progress writes: carriage return, newline (a tty turns it into CR LF), cursor up and down, erase in
 * line, erase below, and colours (ignored). Like tmux with scroll-on-clear, a clear of the whole screen from
 * its top-left corner first moves what it showed into the scrollback. A character written past the last column
 * wraps to the next row, and the wrap is counted.
 */
export class FakeScreen {
  readonly isTTY = true;
  private readonly grid: string[][];
  readonly scrollback: string[] = [];
  /** How many rows the terminal wrapped because a line was wider than the screen. */
  terminalWraps = 0;
  private row = 0;
  private column = 0;

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.grid = Array.from({ length: rows }, () => []);
  }

  write(chunk: string): boolean {
    const pattern = /\u001b\[(\d*)([A-Za-z])|\r|\n|[^\u001b\r\n]/gu;
    for (const match of chunk.matchAll(pattern)) {
      const [whole, count, command] = match;
      if (whole === '\r') this.column = 0;
      else if (whole === '\n') this.newline();
      else if (command !== undefined) this.control(command, count === '' || count === undefined ? 1 : Number(count));
      else this.print(whole);
    }
    return true;
  }

  on(): this {
    return this;
  }

  off(): this {
    return this;
  }

  /** The rows on screen, trailing blanks trimmed, the blank rows at the bottom left out. */
  screen(): string[] {
    const rows = this.grid.map((cells) => cells.join('').trimEnd());
    while (rows.length > 0 && rows.at(-1) === '') rows.pop();
    return rows;
  }

  /** Everything a user can scroll back to once the program ended: the scrollback, then the screen. */
  history(): string[] {
    return [...this.scrollback, ...this.screen()];
  }

  private newline(): void {
    this.column = 0;
    if (this.row < this.rows - 1) {
      this.row++;
      return;
    }
    this.scrollback.push(this.grid.shift()!.join('').trimEnd());
    this.grid.push([]);
  }

  private control(command: string, count: number): void {
    switch (command) {
      case 'A':
        this.row = Math.max(0, this.row - count);
        return;
      case 'B':
        this.row = Math.min(this.rows - 1, this.row + count);
        return;
      case 'K':
        // 2K blanks the whole row; K (0K) blanks from the cursor on.
        this.grid[this.row] = count === 2 ? [] : this.grid[this.row]!.slice(0, this.column);
        return;
      case 'J':
        if (this.row === 0 && this.column === 0) this.scrollback.push(...this.screen());
        this.grid[this.row] = this.grid[this.row]!.slice(0, this.column);
        for (let row = this.row + 1; row < this.rows; row++) this.grid[row] = [];
        return;
      case 'm':
        return;
      default:
        throw new Error(`the fake screen does not know ESC[${command}`);
    }
  }

  private print(char: string): void {
    const width = displayWidth(char);
    if (this.column + width > this.columns) {
      this.newline();
      this.terminalWraps++;
    }
    const cells = this.grid[this.row]!;
    while (cells.length < this.column) cells.push(' ');
    cells[this.column] = char;
    // A wide character's second column holds nothing of its own.
    if (width === 2) cells[this.column + 1] = '';
    this.column += width;
  }
}
