import { describe, expect, it } from 'vitest';
import { breadcrumbsFor, crumbLabel, isKnownPath } from './breadcrumbs.ts';
import { ADMIN_ROUTES } from './test-utils.tsx';

describe('breadcrumbsFor (spec §2.2)', () => {
  it('makes one crumb per segment, hyphens as spaces, first letter capitalised, the last current', () => {
    expect(breadcrumbsFor('/my-networks/select-new-networks')).toEqual([
      { label: 'My networks', path: '/my-networks', isCurrent: false },
      { label: 'Select new networks', path: '/my-networks/select-new-networks', isCurrent: true },
    ]);
  });

  it('writes the segments seeq and faq as SeeQ and FAQ', () => {
    expect(breadcrumbsFor('/support/faq').map((crumb) => crumb.label)).toEqual(['Support', 'FAQ']);
    expect(breadcrumbsFor('/seeq/seeq-flows').map((crumb) => crumb.label)).toEqual(['SeeQ', 'Seeq flows']);
    expect(crumbLabel('FAQ')).toBe('FAQ');
  });

  it('writes the identity-verification segment as the acronym KYC', () => {
    expect(breadcrumbsFor('/my-account/kyc').map((crumb) => crumb.label)).toEqual(['My account', 'KYC']);
  });

  it('writes the token standards as QRC20 and QRC721', () => {
    expect(breadcrumbsFor('/quant-flows/token-flow/qrc20/flex').map((crumb) => crumb.label)).toEqual([
      'Quant flows',
      'Token flow',
      'QRC20',
      'Flex',
    ]);
    expect(crumbLabel('qrc721')).toBe('QRC721');
  });

  it('ignores trailing and repeated slashes and has no crumbs for the root', () => {
    expect(breadcrumbsFor('/dashboard/')).toEqual([{ label: 'Dashboard', path: '/dashboard', isCurrent: true }]);
    expect(breadcrumbsFor('//invoices//my-invoices').map((crumb) => crumb.path)).toEqual([
      '/invoices',
      '/invoices/my-invoices',
    ]);
    expect(breadcrumbsFor('/')).toEqual([]);
  });

  it('decodes escaped segments and keeps malformed ones as typed', () => {
    expect(crumbLabel('token%20flow')).toBe('Token flow');
    expect(crumbLabel('100%')).toBe('100%');
  });
});

describe('isKnownPath', () => {
  it('knows the pages of the route list, children and :params included', () => {
    expect(isKnownPath(ADMIN_ROUTES, '/support')).toBe(true);
    expect(isKnownPath(ADMIN_ROUTES, '/my-networks')).toBe(true);
    expect(isKnownPath(ADMIN_ROUTES, '/campaign-management/42')).toBe(true);
    expect(isKnownPath(ADMIN_ROUTES, '/invoices')).toBe(false);
    expect(isKnownPath(ADMIN_ROUTES, '/account-plan')).toBe(false);
  });
});
