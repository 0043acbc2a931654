import { describe, expect, it } from 'vitest';
import { footerHref, hasFooterContent, isExternalUrl, withSourceSuffix } from './footer-links.ts';

describe('withSourceSuffix (the addSuffix flag)', () => {
  it('appends ?source=<productSlug>-portal', () => {
    expect(withSourceSuffix('https://docs.quant.network/', 'quant')).toBe(
      'https://docs.quant.network/?source=quant-portal',
    );
  });

  it('keeps an existing query and puts the suffix before the fragment', () => {
    expect(withSourceSuffix('https://example.com/a?x=1#part', 'quant')).toBe(
      'https://example.com/a?x=1&source=quant-portal#part',
    );
    expect(withSourceSuffix('https://example.com/a?', 'quant')).toBe('https://example.com/a?source=quant-portal');
  });

  it('is applied only to links that ask for it', () => {
    expect(footerHref({ url: 'https://example.com/', addSuffix: true }, 'seeq')).toBe(
      'https://example.com/?source=seeq-portal',
    );
    expect(footerHref({ url: 'https://example.com/', addSuffix: false }, 'seeq')).toBe('https://example.com/');
  });
});

describe('isExternalUrl', () => {
  it('tells addresses from portal paths', () => {
    expect(isExternalUrl('https://example.com/')).toBe(true);
    expect(isExternalUrl('mailto:hello@example.com')).toBe(true);
    expect(isExternalUrl('//cdn.example.com/x')).toBe(true);
    expect(isExternalUrl('/support/faq')).toBe(false);
  });
});

describe('hasFooterContent', () => {
  const link = { title: 'A', url: 'https://a.example', addSuffix: false, feature: null };
  it('needs at least one section with links', () => {
    expect(hasFooterContent(undefined)).toBe(false);
    expect(hasFooterContent({ sections: [], secondaryLinks: [link] })).toBe(false);
    expect(hasFooterContent({ sections: [{ title: 'S', links: [] }], secondaryLinks: [] })).toBe(false);
    expect(hasFooterContent({ sections: [{ title: 'S', links: [link] }], secondaryLinks: [] })).toBe(true);
  });
});
