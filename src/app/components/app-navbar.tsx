import { Badge, NavLink, ScrollArea } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { sectionAt, type Section } from '../lib/sections';

interface AppNavbarProps {
  sections: readonly Section[];
  onNavigate?: () => void;
}

/** One entry per part of the product; parts not built yet are marked, not hidden. */
export function AppNavbar({ sections, onNavigate }: AppNavbarProps) {
  const activeSection = sectionAt(useLocation().pathname);
  return (
    <ScrollArea component="nav" aria-label="Main" h="100%" p="sm">
      {sections.map((section) => {
        const { label, href, icon: SectionIcon, available } = section;
        const isActive = section === activeSection;
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
              available ? undefined : (
                <Badge size="xs" variant="light" color="gray">
                  Soon
                </Badge>
              )
            }
            mb={2}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
    </ScrollArea>
  );
}
