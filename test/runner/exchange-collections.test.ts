import { describe, expect, it } from 'vitest';
import { ExchangeCollections } from '../../src/runner/exchange-collections.js';
import { OP_ID, TranscriptBuilder } from '../support/transcript-builder.js';

describe('the full collections a run asks for as its exchanges end', () => {
  it('pass every call on to the watch inside, and collect once every so many exchanges ended', () => {
    const heard: string[] = [];
    let collections = 0;
    const watch = new ExchangeCollections({ sent: () => heard.push('sent'), end: (exchange) => heard.push(`end #${exchange.seq}`) }, () => collections++, 3);
    const b = new TranscriptBuilder();
    const collectedAfter: number[] = [];
    for (let i = 0; i < 7; i++) {
      watch.sent();
      watch.end(b.read(OP_ID));
      collectedAfter.push(collections);
    }
    expect(heard.filter((what) => what === 'sent')).toHaveLength(7);
    expect(heard.filter((what) => what.startsWith('end'))).toEqual(['end #1', 'end #2', 'end #3', 'end #4', 'end #5', 'end #6', 'end #7']);
    expect(collectedAfter).toEqual([0, 0, 1, 1, 1, 2, 2]);
  });
});
