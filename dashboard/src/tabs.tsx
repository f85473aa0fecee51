import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

/** A tab whose panel has its own address: choosing it goes to `href` (a `#/…` hash). */
export interface Tab {
  readonly id: string;
  readonly label: string;
  readonly href: string;
}

/** The index a key moves to among `count` tabs from `index`, or undefined for a key tabs do not take. */
const movedTo = (key: string, index: number, count: number): number | undefined => {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
};

/**
 * Tabs over one panel, as WAI-ARIA's tabs pattern: links whose addresses name their tab (so a tab can
 * be bookmarked, and Back goes to the one before), one stop of the Tab key, the arrow keys (and Home,
 * End) choosing the tab beside, and the panel labelled by its tab.
 */
export const Tabs = ({
  label,
  id,
  tabs,
  current,
  children,
}: {
  label: string;
  /** The ids of the tabs (`<id>-tab-<tab>`) and of the panel (`<id>-panel`). */
  id: string;
  tabs: readonly Tab[];
  current: string;
  children: ComponentChildren;
}) => {
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const next = movedTo(event.key, index, tabs.length);
    const tab = next === undefined ? undefined : tabs[next];
    if (next === undefined || !tab) return;
    event.preventDefault();
    location.hash = tab.href;
    links.current[next]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} class="tabs">
        {tabs.map((tab, index) => (
          <a
            key={tab.id}
            ref={(link) => {
              links.current[index] = link;
            }}
            role="tab"
            id={`${id}-tab-${tab.id}`}
            href={tab.href}
            aria-selected={tab.id === current}
            aria-controls={tab.id === current ? `${id}-panel` : undefined}
            tabIndex={tab.id === current ? 0 : -1}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </a>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${current}`} class="tabpanel">
        {children}
      </div>
    </>
  );
};
