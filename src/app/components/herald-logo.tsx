import { ThemeIcon } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';

export function HeraldLogo({ size = 30 }: { size?: number }) {
  return (
    <ThemeIcon size={size} radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 135 }} aria-hidden>
      <IconSpeakerphone size={size * 0.6} />
    </ThemeIcon>
  );
}
