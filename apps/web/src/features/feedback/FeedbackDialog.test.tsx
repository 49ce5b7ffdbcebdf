import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch, requestBody } from '../../test/render-app';
import { FeedbackDialog } from './FeedbackDialog';

function renderDialog(props: { callId?: string | null; assistantId?: string | null } = {}) {
  const onDone = vi.fn();
  render(
    <FeedbackDialog
      open
      callId={props.callId ?? 'call-1'}
      assistantId={props.assistantId ?? 'asst-1'}
      onDone={onDone}
    />,
  );
  return { onDone, user: userEvent.setup() };
}

const receipt = () =>
  jsonResponse({ id: 'fb-1', createdAt: '2025-05-01T10:00:00Z' }, { status: 201 });

describe('FeedbackDialog', () => {
  it('asks how the call went, with a multiline field and Submit', () => {
    renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Feedback' });
    expect(dialog).toHaveAccessibleDescription('How was your call experience?');
    const field = screen.getByRole('textbox', { name: 'Your Feedback' });
    expect(field.tagName).toBe('TEXTAREA');
    expect(field).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('posts the message with the call and assistant ids and reports "submitted"', async () => {
    const fetchSpy = mockFetch(receipt());
    const { onDone, user } = renderDialog({ callId: 'call-5', assistantId: 'asst-9' });
    await user.type(screen.getByRole('textbox', { name: 'Your Feedback' }), 'Clear and kind');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(onDone).toHaveBeenCalledWith('submitted'));
    expect(fetchSpy.mock.calls[0]?.[0]).toBe('/api/feedback');
    expect(requestBody(fetchSpy)).toEqual({
      message: 'Clear and kind',
      callId: 'call-5',
      assistantId: 'asst-9',
    });
  });

  it('sends a null call id when the call had none', async () => {
    const fetchSpy = mockFetch(receipt());
    const onDone = vi.fn();
    render(<FeedbackDialog open callId={null} assistantId="asst-1" onDone={onDone} />);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Your Feedback' }), 'ok');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('submitted'));
    expect(requestBody(fetchSpy)).toEqual({ message: 'ok', callId: null, assistantId: 'asst-1' });
  });

  it('does not send empty feedback and shows a hint instead', async () => {
    const fetchSpy = mockFetch();
    const { onDone, user } = renderDialog();
    await user.type(screen.getByRole('textbox', { name: 'Your Feedback' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      screen.getByText('Write a few words, or close this dialog to skip.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your Feedback' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('keeps the text and shows the error when sending fails, and can try again', async () => {
    mockFetch(errorResponse(503, 'Feedback is switched off for now.'), receipt());
    const { onDone, user } = renderDialog();
    const field = screen.getByRole('textbox', { name: 'Your Feedback' });
    await user.type(field, 'Good');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your feedback could not be sent: Feedback is switched off for now. Please try again.',
    );
    expect(field).toHaveValue('Good');
    expect(onDone).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('submitted'));
  });

  it('disables the buttons while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { onDone, user } = renderDialog();
    await user.type(screen.getByRole('textbox', { name: 'Your Feedback' }), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('button', { name: /Submit/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Skip' })).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Sending your feedback…' })).toBeInTheDocument();
    answer(receipt());
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('submitted'));
  });

  it('reports "skipped" on Escape and on Skip, without sending', async () => {
    const fetchSpy = mockFetch();
    const { onDone, user } = renderDialog();
    await user.keyboard('{Escape}');
    expect(onDone).toHaveBeenLastCalledWith('skipped');
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(onDone).toHaveBeenCalledTimes(2);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('FeedbackDialog with a note about the ending', () => {
  it('tells the visitor why the call ended before asking for feedback', () => {
    render(
      <FeedbackDialog
        open
        callId="call-1"
        assistantId="a-1"
        note="The call ended because the service was stopped or restarted."
        onDone={() => undefined}
      />,
    );
    expect(
      screen.getByText('The call ended because the service was stopped or restarted.'),
    ).toBeVisible();
    expect(screen.getByText('How was your call experience?')).toBeVisible();
  });
});
