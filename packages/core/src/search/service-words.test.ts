import { describe, expect, it } from 'vitest';
import { ServiceWords, type ServiceTool } from './service-words.js';

const tools = (server: string, ...texts: string[]): ServiceTool[] => texts.map((t) => ({ server, words: t.toLowerCase().split(' ') }));
const EVERYDAY = new Set(['memory', 'table', 'file', 'notion', 'list', 'read', 'create', 'issue', 'page']);
const options = { term: (w: string) => w, common: (w: string) => EVERYDAY.has(w) };

describe('ServiceWords', () => {
  const words = new ServiceWords(
    [
      ...tools('gh', 'create issue in a github repository', 'list issue of a github repository', 'read file from github'),
      ...tools('notion', 'notion create page', 'notion read page', 'notion list page'),
      ...tools('memory', 'create entity', 'read graph'),
      ...tools('postgres', 'query'),
      ...tools('files', 'read file', 'list file', 'move file'),
      ...tools('sheets', 'list table', 'read table'),
    ],
    options,
  );

  it("names a server by a word most of its tools use and few others do, whatever the server's name", () => {
    expect([...words.named(['github'])]).toEqual(['gh']);
    expect([...words.named(['on', 'github', 'open', 'issue'])]).toEqual(['gh']);
  });

  it('takes an everyday word only when it is also the server name ("notion"), a name alone only when it is no everyday word', () => {
    expect([...words.named(['notion'])]).toEqual(['notion']);
    expect([...words.named(['postgres'])]).toEqual(['postgres']);
    expect([...words.named(['memory'])]).toEqual([]);
    expect([...words.named(['table'])]).toEqual([]);
  });

  it('never takes a word many servers use, nor one every MCP server could be called by', () => {
    expect([...words.named(['file', 'read', 'list', 'create'])]).toEqual([]);
    const withApi = new ServiceWords([...tools('x', 'api get', 'api put'), ...tools('y', 'query')], options);
    expect([...withApi.named(['api'])]).toEqual([]);
    expect([...withApi.named(['get'])]).toEqual(['x']);
  });
});
