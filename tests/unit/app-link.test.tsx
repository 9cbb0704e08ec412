// @vitest-environment jsdom
// The app's Link (src/app/Link.tsx) is React Router's useHref + useLinkClickHandler, without the
// framework mode's prefetching that its <Link> carries. It must behave as that <Link> does for
// every way the screens use it: the same href under the base path, a plain click navigates in
// the app, a click with a modifier key, another button or target="_blank" is the browser's, and
// an onClick that prevents the default keeps the page where it is.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Link as RouterLink, MemoryRouter, useLocation, type To } from 'react-router-dom';
import type { MouseEvent } from 'react';
import { Link } from '../../src/app/Link';

afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

type Kind = 'app' | 'router';
function renderLink(kind: Kind, to: To, props: { target?: string; onClick?: (event: MouseEvent<HTMLAnchorElement>) => void } = {}) {
  const Component = kind === 'app' ? Link : RouterLink;
  render(
    <MemoryRouter basename="/user" initialEntries={['/user/mypage']}>
      <Component to={to} className="button" {...props}>
        go
      </Component>
      <Where />
    </MemoryRouter>,
  );
  return { link: screen.getByRole('link', { name: 'go' }), where: () => screen.getByLabelText('where').textContent };
}

const TARGETS: To[] = ['/info', { pathname: '/contact_history/Q1', search: '?status=all&page=2' }];
const CLICKS: Array<[string, Parameters<typeof fireEvent.click>[1]]> = [
  ['a plain click', {}],
  ['a ctrl-click', { ctrlKey: true }],
  ['a shift-click', { shiftKey: true }],
  ['a meta-click', { metaKey: true }],
  ['a middle click', { button: 1 }],
];

describe('the app Link', () => {
  for (const to of TARGETS) {
    for (const [name, init] of CLICKS) {
      it(`gives the href and the navigation React Router's Link gives, for ${name} on ${JSON.stringify(to)}`, () => {
        const outcome = (['app', 'router'] as const).map((kind) => {
          const { link, where } = renderLink(kind, to);
          const result = { href: link.getAttribute('href'), className: link.className, notPrevented: fireEvent.click(link, init), where: where() };
          cleanup();
          return result;
        });
        expect(outcome[0]).toEqual(outcome[1]);
      });
    }
  }

  it('navigates on a plain click and leaves the others to the browser', () => {
    const { link, where } = renderLink('app', '/info');
    expect(link.getAttribute('href')).toBe('/user/info');
    expect(fireEvent.click(link, { ctrlKey: true })).toBe(true);
    expect(where()).toBe('/mypage');
    expect(fireEvent.click(link)).toBe(false);
    expect(where()).toBe('/info');
  });

  it('leaves target="_blank" to the browser, and respects an onClick that prevents the default', () => {
    const blank = renderLink('app', '/info', { target: '_blank' });
    expect(fireEvent.click(blank.link)).toBe(true);
    expect(blank.where()).toBe('/mypage');
    cleanup();
    const stopped = renderLink('app', '/info', { onClick: (event) => event.preventDefault() });
    fireEvent.click(stopped.link);
    expect(stopped.where()).toBe('/mypage');
  });
});
