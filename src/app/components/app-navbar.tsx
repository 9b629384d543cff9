import { Badge, NavLink, ScrollArea, VisuallyHidden } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { sectionAt, type Section } from '../lib/sections';

interface AppNavbarProps {
  sections: readonly Section[];
  onNavigate?: () => void;
  /** A count beside a section, by its href (the inbox's unread conversations); none when absent or 0. */
  counts?: Readonly<Record<string, { value: number; label: string }>>;
}

/** One entry per part of the product; parts not built yet are marked, not hidden. */
export function AppNavbar({ sections, onNavigate, counts = {} }: AppNavbarProps) {
  const activeSection = sectionAt(useLocation().pathname);
  return (
    <ScrollArea component="nav" aria-label="Main" h="100%" p="sm">
      {sections.map((section) => {
        const { label, href, icon: SectionIcon, available } = section;
        const isActive = section === activeSection;
        const count = counts[href];
        return (
          <NavLink
            key={href}
            component={Link}
            to={href}
            onClick={onNavigate}
            label={label}
            noWrap
            active={isActive}
            aria-current={isActive ? 'page' : undefined}
            leftSection={<SectionIcon size={18} stroke={1.6} />}
            rightSection={
              !available ? (
                <Badge size="xs" variant="light" color="gray">
                  Soon
                </Badge>
              ) : count && count.value > 0 ? (
                <Badge size="sm" variant="filled" circle={count.value < 10}>
                  <span aria-hidden>{count.value > 99 ? '99+' : count.value}</span>
                  <VisuallyHidden>{count.label}</VisuallyHidden>
                </Badge>
              ) : undefined
            }
            mb={2}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
    </ScrollArea>
  );
}
