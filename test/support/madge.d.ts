// madge ships no types: the little of its API the cycle test uses.
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    baseDir?: string;
    detectiveOptions?: Record<string, unknown>;
  }
  interface MadgeInstance {
    circular(): string[][];
    obj(): Record<string, string[]>;
    warnings(): { skipped: string[] };
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeInstance>;
}
